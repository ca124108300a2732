/// Seed 000: FSVerticalTabBarController's left column, under its own preset.
enum VerticalDemo {
    static let json = #"""
        {
          "id": "vertical",
          "name": {"en": "Vertical Tab Bar", "zh-Hant": "垂直分頁列"},
          "languages": ["en", "zh-Hant"],
          "tint": "#2993EF",
          "layout": "vertical",
          "policies": "fsVertical",
          "tabs": [
            {
              "id": "inbox",
              "title": {"en": "Inbox", "zh-Hant": "收件匣"},
              "icon": "inbox",
              "page": {
                "kind": "news",
                "heading": {"en": "Messages", "zh-Hant": "訊息"},
                "items": [
                  {"id": "welcome", "title": {"en": "Welcome aboard", "zh-Hant": "歡迎加入"},
                   "body": {"en": "Thanks for trying the vertical tab bar.", "zh-Hant": "感謝試用垂直分頁列。"}},
                  {"id": "meeting", "title": {"en": "Meeting at 3 pm", "zh-Hant": "下午三點開會"},
                   "body": {"en": "Room 4, bring the sketches.", "zh-Hant": "四號會議室，請帶草圖。"}},
                  {"id": "invoice", "title": {"en": "Invoice ready", "zh-Hant": "發票已開立"},
                   "body": {"en": "Your March invoice is ready.", "zh-Hant": "三月份發票已開立。"}},
                  {"id": "reminder", "title": {"en": "Reminder", "zh-Hant": "提醒"},
                   "body": {"en": "Back up your photos this week.", "zh-Hant": "本週記得備份照片。"}}
                ]
              }
            },
            {
              "id": "discover",
              "allowsHiding": true,
              "title": {"en": "Discover", "zh-Hant": "探索"},
              "icon": "search",
              "page": {
                "kind": "search",
                "heading": {"en": "Discover", "zh-Hant": "探索"},
                "placeholder": {"en": "Search topics", "zh-Hant": "搜尋主題"},
                "items": [
                  {"id": "design", "title": {"en": "Design", "zh-Hant": "設計"},
                   "detail": {"en": "Layouts, colour and type", "zh-Hant": "版面、色彩與字體"}},
                  {"id": "travel", "title": {"en": "Travel", "zh-Hant": "旅遊"},
                   "detail": {"en": "Trains, islands and maps", "zh-Hant": "火車、島嶼與地圖"}},
                  {"id": "cooking", "title": {"en": "Cooking", "zh-Hant": "烹飪"},
                   "detail": {"en": "Soups and noodles", "zh-Hant": "湯品與麵食"}},
                  {"id": "music", "title": {"en": "Music", "zh-Hant": "音樂"},
                   "detail": {"en": "Playlists for work", "zh-Hant": "工作用的播放清單"}},
                  {"id": "science", "title": {"en": "Science", "zh-Hant": "科學"},
                   "detail": {"en": "Stars and cells", "zh-Hant": "星星與細胞"}}
                ]
              }
            },
            {
              "id": "favorites",
              "allowsHiding": true,
              "title": {"en": "Favorites", "zh-Hant": "我的最愛"},
              "icon": "star",
              "page": {
                "kind": "checklist",
                "heading": {"en": "Favorites", "zh-Hant": "我的最愛"},
                "items": [
                  {"id": "coffee", "title": {"en": "Morning coffee", "zh-Hant": "早晨咖啡"}, "checked": true},
                  {"id": "park", "title": {"en": "Walk in the park", "zh-Hant": "公園散步"}},
                  {"id": "books", "title": {"en": "Reading", "zh-Hant": "閱讀"}},
                  {"id": "films", "title": {"en": "Old films", "zh-Hant": "老電影"}}
                ]
              }
            },
            {
              "id": "personal-center",
              "title": {"en": "Personal Center", "zh-Hant": "個人中心"},
              "icon": "person",
              "requiresLogin": true,
              "page": {
                "kind": "profile",
                "heading": {"en": "Personal Center", "zh-Hant": "個人中心"},
                "paragraphs": [
                  {"en": "Only logged-in visitors may enter, as in the seed's shouldSelect example.",
                   "zh-Hant": "如同範例中的 shouldSelect，只有登入的訪客可以進入。"}
                ]
              }
            },
            {
              "id": "settings",
              "title": {"en": "Settings", "zh-Hant": "設定"},
              "icon": "settings",
              "page": {
                "kind": "settings",
                "heading": {"en": "Settings", "zh-Hant": "設定"},
                "toggles": [
                  {"id": "notifications", "title": {"en": "Notifications", "zh-Hant": "通知"}, "on": true},
                  {"id": "dark-mode", "title": {"en": "Dark mode", "zh-Hant": "深色模式"}},
                  {"id": "sounds", "title": {"en": "Sounds", "zh-Hant": "音效"}, "on": true}
                ]
              }
            }
          ],
          "sections": [
            {"id": "you", "title": {"en": "You", "zh-Hant": "你"}, "tabs": ["personal-center", "settings"]}
          ],
          "customizable": ["inbox", "discover", "favorites"]
        }
        """#
}
